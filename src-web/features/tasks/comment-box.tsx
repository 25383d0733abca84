import { TIMINGS_MS } from '@contract/constants';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The automatic comment given to this user, with a copy button that confirms for 2 seconds. */
export function CommentBox({ comment }: { comment: string }) {
  const { t } = useTranslation('tasks');
  const [copiedAt, setCopiedAt] = useState(0);
  const [failed, setFailed] = useState(false);
  const textRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!copiedAt) return;
    const timer = setTimeout(() => setCopiedAt(0), TIMINGS_MS.copyConfirm);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  const copy = async () => {
    setFailed(false);
    try {
      await navigator.clipboard.writeText(comment);
      setCopiedAt(Date.now());
    } catch {
      // no clipboard access (an old browser, or permission refused): select it for a manual copy
      const node = textRef.current;
      if (node) window.getSelection()?.selectAllChildren(node);
      setFailed(true);
    }
  };

  return (
    <section
      className="card comment-box"
      id="task-comment"
      aria-labelledby="comment-title"
      data-testid="comment-box"
    >
      <div className="row-between">
        <h2 id="comment-title" tabIndex={-1}>
          {t('comment.title')}
        </h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={copy} data-testid="copy-comment">
          {copiedAt ? t('comment.copied') : t('comment.copy')}
        </button>
      </div>
      <p className="muted">{t('comment.hint')}</p>
      <p className="comment-text pre-line" ref={textRef} data-testid="comment-text">
        {comment}
      </p>
      <p className="sr-only" aria-live="polite">
        {copiedAt ? t('comment.copied') : ''}
      </p>
      {failed && (
        <p className="notice notice-error" role="alert">
          {t('comment.copyFailed')}
        </p>
      )}
    </section>
  );
}
