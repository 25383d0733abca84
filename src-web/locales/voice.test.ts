import { describe, expect, it } from 'vitest';
import { composeMail, type MailKind } from '../../src-server/features/mail/mail-texts';
import { NOTIFICATION_TEXTS } from '../../src-server/features/notifications/notification-texts';
import { resources } from './index';
import { formalMarks, leaves } from './voice-register';

describe('one voice across the app', () => {
  it.each(['tr', 'en'] as const)(
    'names each rejection reason alike for the worker and the admin (%s)',
    (lang) => {
      expect(resources[lang].adminLists.rejectionReasons).toEqual(
        resources[lang].submissions.rejectionReasons,
      );
    },
  );

  it('finds the formal marks it looks for', () => {
    for (const formal of [
      'Kanıtınız onaylandı',
      'Bunu yapabilirsiniz.',
      'Lütfen tekrar deneyin.',
      'Bir görsel seçin',
      'Size bildirilecek',
      'Tekrar hoş geldiniz',
      'Emin misiniz?',
    ]) {
      expect(formalMarks(formal), formal).not.toEqual([]);
    }
    for (const plain of [
      'Kanıtın onaylandı',
      'Tekrar dene',
      'Bu ayın kazancı',
      'Görevin adımları',
      'Süresiz',
    ]) {
      expect(formalMarks(plain), plain).toEqual([]);
    }
  });

  it('speaks to the reader as "sen" in every Turkish text (legal texts aside)', () => {
    const formal = Object.entries(resources.tr).flatMap(([ns, tree]) =>
      leaves(tree)
        // terms, privacy and the KVKK notice keep the formal register their genre expects
        .filter(([key]) => !/legal/i.test(`${ns}.${key}`))
        .filter(([, text]) => formalMarks(text).length > 0)
        .map(([key, text]) => `${ns}:${key} ${JSON.stringify(formalMarks(text))} ${text}`),
    );
    expect(formal).toEqual([]);
  });

  it('speaks as "sen" in the Turkish mails and push messages too', () => {
    const kinds: MailKind[] = [
      'password_reset',
      'email_verify',
      'submission_approved',
      'submission_rejected',
      'appeal_upheld',
      'appeal_overturned',
      'withdrawal_paid',
      'withdrawal_rejected',
    ];
    const values = {
      site: 'TaskReward',
      name: 'Ayşe',
      link: 'https://x.test/a',
      amount: '₺5,00',
      task: 'Görev',
      reason: 'Neden',
      minutes: 30,
    };
    const texts = [
      ...kinds.flatMap((kind) => {
        const mail = composeMail(kind, 'tr', values);
        return [mail.subject, mail.text];
      }),
      ...Object.values(NOTIFICATION_TEXTS).flatMap((n) => [n.headings.tr, n.contents.tr]),
    ];
    expect(texts.filter((text) => formalMarks(text).length > 0)).toEqual([]);
  });
});
