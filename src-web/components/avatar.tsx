/** A profile photo, or the first letter of the name on a coloured disc. */
export function Avatar({ name, image, size = 40 }: { name: string; image?: string | null; size?: number }) {
  if (image) {
    return <img className="avatar" src={image} alt="" width={size} height={size} />;
  }
  return (
    <span
      className="avatar avatar-initial"
      data-size={size > 48 ? 'lg' : size > 32 ? 'md' : 'sm'}
      aria-hidden="true"
    >
      {(name.trim()[0] ?? '?').toLocaleUpperCase('tr-TR')}
    </span>
  );
}
