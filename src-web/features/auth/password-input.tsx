import { type InputHTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon } from '../../components/icons';

/** A password field with a show/hide toggle. */
export function PasswordInput(props: InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  const { t } = useTranslation('auth');
  return (
    <div className="input-with-button">
      <input {...props} type={shown ? 'text' : 'password'} />
      <button
        type="button"
        className="icon-btn"
        onClick={() => setShown((s) => !s)}
        aria-label={shown ? t('hidePassword') : t('showPassword')}
        aria-pressed={shown}
      >
        <EyeIcon off={shown} />
      </button>
    </div>
  );
}
