import { Fragment, type ReactNode } from 'react';
import { Modal } from '../modal';

/**
 * A modal holding a form about one item: open while there is an item, not closed by a stray
 * click on the backdrop, and the form remounted (fresh state) for each item.
 */
export function ItemFormModal<T extends { _id: string }>({
  item,
  title,
  onClose,
  children,
}: {
  item: T | null;
  title: string;
  onClose(): void;
  children(item: T): ReactNode;
}) {
  return (
    <Modal open={item !== null} title={title} onClose={onClose} closeOnBackdrop={false}>
      {item && <Fragment key={item._id}>{children(item)}</Fragment>}
    </Modal>
  );
}
