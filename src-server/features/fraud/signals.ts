import type { Transaction } from 'kysely';
import { derivedMinSeconds, MAX_FLAG_RELATED, REGISTRATION_BURST } from '../../contract/fraud';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';
import type { ContentPrints } from '../../storage/content-print';
import {
  CANDIDATE_HASH_BITS,
  isContentPrint,
  nearestOf,
  PART_NAMES,
  type PartName,
  pictureJudge,
} from './fingerprint-bands';
import {
  accountsSharing,
  accountsWithPayoutNumber,
  type CloseProof,
  closeProofs,
  insertFlag,
  type NewFlag,
  proofCandidateHashes,
  upsertAccountFlag,
} from './fraud.repository';

type Conn = Db | Transaction<DB>;

/**
 * The fraud signals, each found where its item is created and stored with it. They
 * only inform the admin who decides: nothing here refuses, holds or bans anything.
 */

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

export interface DuplicateMatch {
  ids: string[];
  others: number;
  ownOtherTask: number;
  /** the nearest match's similarity (0-100) and the parts of the content that matched */
  similarity: number;
  parts: PartName[];
}

/**
 * At most this many of the candidates within CANDIDATE_HASH_BITS, nearest first, are read for
 * their prints and owners: a picture thousands of proofs share (a campaign's screenshot sent
 * again and again) costs one bounded read, not one that grows with every copy, and the flag
 * names MAX_FLAG_RELATED of them anyway.
 */
export const MAX_CLOSE_CANDIDATES = 500;

/**
 * Earlier proofs showing the same content as a new screenshot proof: another account's (any
 * task), or this account's for another task (a proof sent again for the same task after a
 * rejection is not a duplicate). Nearest first, at most MAX_FLAG_RELATED. `before` keeps only
 * proofs stored before that time (the backfill judges an older proof against those older
 * still). Read before the submission's transaction: the lookup takes no write lock.
 */
export async function findDuplicateProofs(
  db: Conn,
  proof: {
    userId: string;
    taskId: string;
    probes: readonly ContentPrints[];
    before?: string;
    except?: string;
  },
): Promise<DuplicateMatch | null> {
  // the band lookup returns the hashes sharing a band with a probe: most are far on the whole
  // hash, and only the proofs of the nearest close ones are read, nearest hashes first
  const distance = nearestOf(proof.probes.map((p) => p.hash));
  const found = await proofCandidateHashes(db, proof.probes);
  const byBits = new Map<number, string[]>();
  for (const hash of found.bands.keys()) {
    const bits = distance(hash);
    if (bits > CANDIDATE_HASH_BITS) continue;
    const level = byBits.get(bits);
    if (level) level.push(hash);
    else byBits.set(bits, [hash]);
  }
  const read: CloseProof[] = [];
  for (const [, level] of [...byBits].sort(([a], [b]) => a - b)) {
    const limit = MAX_CLOSE_CANDIDATES - read.length;
    if (limit <= 0) break;
    // every hash found has a proof: more hashes than the room left cannot be needed
    read.push(...(await closeProofs(db, found, level.slice(0, limit), { limit, except: proof.except })));
  }
  const close = read.filter(
    (c) =>
      (c.user_id !== proof.userId || c.task_id !== proof.taskId) &&
      (proof.before === undefined || c.created_at < proof.before),
  );
  if (close.length === 0) return null;
  const judge = pictureJudge(proof.probes);
  const matches = close
    .filter((c) => isContentPrint(c.proof_print))
    .map((c) => ({ c, ...judge(c.proof_print as string) }))
    .filter((m) => m.same)
    .sort((a, b) => a.bits - b.bits || a.c.created_at.localeCompare(b.c.created_at))
    .slice(0, MAX_FLAG_RELATED);
  if (matches.length === 0) return null;
  const others = matches.filter((m) => m.c.user_id !== proof.userId).length;
  return {
    ids: matches.map((m) => m.c._id),
    others,
    ownOtherTask: matches.length - others,
    similarity: matches[0].similarity,
    parts: matches[0].parts,
  };
}

const PARTS_TR: Record<PartName, string> = {
  'top left': 'sol üst',
  'top right': 'sağ üst',
  'middle left': 'sol orta',
  'middle right': 'sağ orta',
  'bottom left': 'sol alt',
  'bottom right': 'sağ alt',
};

/** Which part matched, in words: the whole content, or all of it but the parts that differ. */
function partsInWords(parts: PartName[]): { en: string; tr: string } {
  const differ = PART_NAMES.filter((p) => !parts.includes(p));
  if (differ.length === 0)
    return { en: 'all of the screen content matches', tr: 'ekran içeriğinin tamamı eşleşiyor' };
  if (parts.length === 0)
    return { en: 'the screen content matches as a whole', tr: 'ekran içeriği bütün olarak eşleşiyor' };
  const list = (words: string[], and: string) =>
    words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}`;
  return {
    en: `the screen content matches except its ${list(differ, 'and')} (a sticker or an edit?)`,
    tr: `ekran içeriği ${list(
      differ.map((p) => PARTS_TR[p]),
      've',
    )} kısmı dışında eşleşiyor (çıkartma ya da düzenleme?)`,
  };
}

export function duplicateProofFlag(
  match: DuplicateMatch,
  item: { submissionId: string; userId: string; at: string },
): NewFlag {
  const n = match.ids.length;
  const en: string[] = [];
  const tr: string[] = [];
  if (match.others > 0) {
    en.push(`${match.others} by ${plural(match.others, 'another account', 'other accounts')}`);
    tr.push(`${match.others} tanesi başka hesaplardan`);
  }
  if (match.ownOtherTask > 0) {
    en.push(`${match.ownOtherTask} by this account for another task`);
    tr.push(`${match.ownOtherTask} tanesi bu hesabın başka görevlerinden`);
  }
  const where = partsInWords(match.parts);
  return {
    itemType: 'submission',
    itemId: item.submissionId,
    userId: item.userId,
    kind: 'duplicate_proof',
    en: `${match.similarity}% similar to ${n} earlier ${plural(n, 'proof', 'proofs')} (${en.join(', ')}): ${where.en}; status and navigation bars are not compared`,
    tr: `Daha önce gönderilmiş ${n} kanıta %${match.similarity} benziyor (${tr.join(', ')}): ${where.tr}; durum ve gezinme çubukları karşılaştırılmaz`,
    related: match.ids,
    at: item.at,
    similarity: match.similarity,
  };
}

/**
 * A proof sent sooner after its start than the task allows (its minSeconds, or a quarter of its
 * estimated time): null when it took long enough.
 */
export function tooFastFlag(input: {
  submissionId: string;
  userId: string;
  task: { _id: string; min_seconds: number | null; estimated_time: number | null };
  startedAt: string;
  sentAt: string;
}): NewFlag | null {
  const minimum = input.task.min_seconds ?? derivedMinSeconds(input.task.estimated_time);
  const seconds = Math.max(0, Math.floor((Date.parse(input.sentAt) - Date.parse(input.startedAt)) / 1000));
  if (minimum <= 0 || seconds >= minimum) return null;
  return {
    itemType: 'submission',
    itemId: input.submissionId,
    userId: input.userId,
    kind: 'too_fast',
    en: `Sent ${seconds} s after starting; this task takes at least ${minimum} s`,
    tr: `Başladıktan ${seconds} sn sonra gönderildi; bu görev en az ${minimum} sn sürer`,
    related: [input.task._id],
    at: input.sentAt,
  };
}

/** In the withdrawal's own transaction: other accounts that withdrew to the same account number. */
export async function flagSharedPayout(
  db: Conn,
  w: { withdrawalId: string; userId: string; accountNumber: string; method: 'papara' | 'iban'; at: string },
): Promise<boolean> {
  const others = await accountsWithPayoutNumber(db, w.accountNumber, w.userId);
  if (others.length === 0) return false;
  const n = others.length;
  const what = w.method === 'iban' ? 'IBAN' : 'Papara number';
  const whatTr = w.method === 'iban' ? 'IBAN' : 'Papara numarası';
  await insertFlag(db, {
    itemType: 'withdrawal',
    itemId: w.withdrawalId,
    userId: w.userId,
    kind: 'shared_payout',
    en: `This ${what} was also used by ${n} other ${plural(n, 'account', 'accounts')}`,
    tr: `Bu ${whatTr} ${n} başka hesap tarafından da kullanıldı`,
    related: others.slice(0, MAX_FLAG_RELATED),
    at: w.at,
  });
  return true;
}

/**
 * At sign-up and at every sign-in with a device id: other accounts with the same device id
 * make this account's shared_device flag (kept up to date).
 */
export async function flagSharedDevice(
  db: Conn,
  account: { userId: string; deviceId: string | null; at: string },
): Promise<boolean> {
  if (!account.deviceId) return false;
  const others = await accountsSharing(db, 'device_id', account.deviceId, account.userId);
  if (others.length === 0) return false;
  const n = others.length;
  await upsertAccountFlag(db, {
    itemType: 'user',
    itemId: account.userId,
    userId: account.userId,
    kind: 'shared_device',
    en: `This device is also used by ${n} other ${plural(n, 'account', 'accounts')}`,
    tr: `Bu cihazı ${n} başka hesap daha kullanıyor`,
    related: others.slice(0, MAX_FLAG_RELATED),
    at: account.at,
  });
  return true;
}

/**
 * At sign-up: REGISTRATION_BURST or more accounts registered from this address within 24 hours
 * (this one included) make this account's address_burst flag.
 */
export async function flagAddressBurst(
  db: Conn,
  account: { userId: string; address: string; at: string },
): Promise<boolean> {
  const since = new Date(Date.parse(account.at) - 86_400_000).toISOString();
  const others = await accountsSharing(db, 'register_ip', account.address, account.userId, since);
  const n = others.length + 1;
  if (n < REGISTRATION_BURST) return false;
  await upsertAccountFlag(db, {
    itemType: 'user',
    itemId: account.userId,
    userId: account.userId,
    kind: 'address_burst',
    en: `${n} accounts were registered from this address within a day`,
    tr: `Bu adresten bir gün içinde ${n} hesap açıldı`,
    related: others.slice(0, MAX_FLAG_RELATED),
    at: account.at,
  });
  return true;
}
