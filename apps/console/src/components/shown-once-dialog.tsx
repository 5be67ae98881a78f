// A secret the server reveals once (a signing secret, an API token, a one-time sign-in link): shown in a
// dialog with a copy button and a warning, and gone from the page once the dialog is closed.

import { useState } from 'react';
import { Modal } from './modal';

interface ShownOnceDialogProps {
  title: string;
  value: string;
  /** What the value is for and what to do with it; the "shown only now" warning is added. */
  explanation: string;
  onClose: () => void;
}

export function ShownOnceDialog({ title, value, explanation, onClose }: ShownOnceDialogProps) {
  const [copied, setCopied] = useState<'yes' | 'no' | 'failed'>('no');
  return (
    <Modal title={title} onClose={onClose} testId="shown-once-dialog">
      <p>{explanation}</p>
      <p className="notice notice-warning">
        This is shown only now. Copy it and keep it safe: it cannot be shown again.
      </p>
      <input
        className="secret"
        readOnly
        value={value}
        aria-label={title}
        data-testid="shown-once-value"
        onFocus={(event) => {
          event.currentTarget.select();
        }}
      />
      <div className="actions">
        <button
          type="button"
          onClick={() => {
            navigator.clipboard.writeText(value).then(
              () => {
                setCopied('yes');
              },
              () => {
                setCopied('failed');
              },
            );
          }}
        >
          Copy
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Done
        </button>
        <span role="status">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'failed'
              ? 'Could not copy; select the text instead.'
              : ''}
        </span>
      </div>
    </Modal>
  );
}
