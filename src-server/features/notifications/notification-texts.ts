import type { NotificationType } from '../../contract/constants';
import type { Localized } from './push';

/** The fixed heading and text of every type but customMessage, in English and Turkish. */
export const NOTIFICATION_TEXTS: Record<
  Exclude<NotificationType, 'customMessage'>,
  { headings: Localized; contents: Localized }
> = {
  isAccepted: {
    headings: { en: 'Task approved', tr: 'Görev onaylandı' },
    contents: {
      en: 'Your task proof was approved and the reward was added to your balance.',
      tr: 'Kanıtın onaylandı ve ödülün bakiyene eklendi.',
    },
  },
  isRejected: {
    headings: { en: 'Task rejected', tr: 'Görev reddedildi' },
    contents: {
      en: 'Your task proof was rejected. See the reason and try the task again.',
      tr: 'Kanıtın reddedildi. Sebebine bakıp görevi yeniden deneyebilirsin.',
    },
  },
  newTask: {
    headings: { en: 'New task', tr: 'Yeni görev' },
    contents: {
      en: 'A new task is waiting for you. Complete it and earn your reward!',
      tr: 'Seni yeni bir görev bekliyor. Tamamla, ödülünü kazan!',
    },
  },
  acceptedWithdraw: {
    headings: { en: 'Withdrawal approved', tr: 'Para çekme onaylandı' },
    contents: {
      en: 'Your withdrawal request was approved. The payment is made within 24-48 hours.',
      tr: 'Para çekme talebin onaylandı. Ödeme 24-48 saat içinde yapılır.',
    },
  },
  rejectedWithdraw: {
    headings: { en: 'Withdrawal rejected', tr: 'Para çekme reddedildi' },
    contents: {
      en: 'Your withdrawal request was rejected and the amount was returned to your balance.',
      tr: 'Para çekme talebin reddedildi ve tutar bakiyene iade edildi.',
    },
  },
};
