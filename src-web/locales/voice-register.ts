/**
 * The marks of the formal "siz" register in Turkish, which the app does not use (docs/voice.md):
 * second-person plural endings (kanıtınız, yapabilirsiniz, başlattınız, misiniz), the pronoun
 * itself, and the plural imperative of the verbs the app's texts use ("deneyin", "girin").
 */
const PLURAL_ENDING = /[a-zçğıöşü](ınız|iniz|unuz|ünüz)/i;
const PRONOUN = /(^|[^a-zçğıöşü{])siz(e|i|in|den|inle)?([^a-zçğıöşü}]|$)/i;
// a vowel-stem plural imperative ("deneyin", "bekleyin", "okuyun"); a few nouns end alike
const Y_IMPERATIVE =
  /(^|[^a-zçğıöşü])(?!(?:ayın|payın|oyun|neyin|suyun|köyün)(?:[^a-zçğıöşü]|$))[a-zçğıöşü]+y(ın|in|un|ün)([^a-zçğıöşü]|$)/i;
const IMPERATIVES = [
  'alın',
  'açın',
  'bakın',
  'basın',
  'başlatın',
  'bırakın',
  'değiştirin',
  'dokunun',
  'edin',
  'geçin',
  'gidin',
  'girin',
  'gönderin',
  'kaldırın',
  'kapatın',
  'kaydedin',
  'kaydolun',
  'kullanın',
  'okutun',
  'olun',
  'oluşturun',
  'seçin',
  'silin',
  'sonlandırın',
  'tutun',
  'verin',
  'yapın',
  'yazın',
  'çıkın',
  'ödeyin',
  'getirin',
  'koyun',
  'bulun',
  'yükseltin',
  'düzeltin',
  'indirin',
  'sıfırlayın',
];
const IMPERATIVE = new RegExp(`(^|[^a-zçğıöşü])(${IMPERATIVES.join('|')})([^a-zçğıöşü]|$)`, 'i');

/** The formal marks found in one Turkish text (empty when it speaks as "sen"). */
export function formalMarks(text: string): string[] {
  const found: string[] = [];
  for (const re of [PLURAL_ENDING, PRONOUN, Y_IMPERATIVE, IMPERATIVE]) {
    const hit = text.match(re);
    if (hit) found.push(hit[0].trim());
  }
  return found;
}

/** Every string leaf of a locale tree with its dotted key. */
export function leaves(tree: unknown, prefix = ''): Array<[string, string]> {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}
