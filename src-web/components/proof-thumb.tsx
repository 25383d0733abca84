import { useTranslation } from 'react-i18next';

/**
 * A proof's thumbnail (the small WebP the server makes at upload; the proof itself while a proof
 * from before thumbnails has none yet). With `onOpen` it is a button (the evidence modal, the
 * worker's proof viewer); without, a link to the full proof in a new tab.
 */
export function ProofThumb({
  item,
  title,
  onOpen,
}: {
  item: { proofImageUrl: string | null; proofThumbnailUrl?: string | null };
  title: string;
  onOpen?: () => void;
}) {
  const { t } = useTranslation();
  const src = item.proofThumbnailUrl ?? item.proofImageUrl;
  if (!src) return null;
  const image = (
    <img
      className="proof-thumb"
      src={src}
      alt={t('proofThumb.alt', { title })}
      loading="lazy"
      decoding="async"
      width={48}
      height={48}
    />
  );
  if (onOpen) {
    return (
      <button type="button" className="proof-thumb-link" onClick={onOpen} data-testid="proof-thumb">
        {image}
      </button>
    );
  }
  return (
    <a
      className="proof-thumb-link"
      href={item.proofImageUrl ?? src}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="proof-thumb"
    >
      {image}
    </a>
  );
}
