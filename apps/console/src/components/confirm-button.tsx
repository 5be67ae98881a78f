// A change that cannot be undone asks first: the button opens a dialog that names what will happen, and
// only its "Confirm" button makes the change.

import { useState, type ReactNode } from 'react';
import { ChangeButton } from './change-button';
import { Modal } from './modal';

interface ConfirmButtonProps {
  /** The button's text, e.g. "Remove". */
  children: ReactNode;
  /** The dialog's title, saying what will happen, e.g. "Remove endpoint https://…?" */
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}

export function ConfirmButton({ children, question, onConfirm, disabled, className }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
  };
  return (
    <>
      <ChangeButton
        className={className}
        disabled={disabled}
        onClick={() => {
          setAsking(true);
        }}
      >
        {children}
      </ChangeButton>
      {asking && (
        <Modal title={question} onClose={close} testId="confirm-dialog">
          <div className="actions">
            <button
              type="button"
              className="danger"
              onClick={() => {
                close();
                onConfirm();
              }}
            >
              Confirm
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
