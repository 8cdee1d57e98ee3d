import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import './FormField.css';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the input (and marks it invalid). */
  error?: string | null;
  /** Right of the input: a send-code button, a show-password toggle… */
  addon?: ReactNode;
  /** Under the input when there is no error. */
  hint?: ReactNode;
  testId?: string;
}

/** A labelled input row with its error underneath (the forms show every field error in place). */
export function FormField({ label, value, onChange, error, addon, hint, testId, id, ...rest }: FormFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-err`;
  return (
    <div className={`ff${error ? ' ff--error' : ''}`}>
      <div className="ff__row">
        <label className="ff__label" htmlFor={inputId}>
          {label}
        </label>
        <input
          id={inputId}
          className="ff__input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-testid={testId}
          {...rest}
        />
        {addon && <div className="ff__addon">{addon}</div>}
      </div>
      {error ? (
        <p className="ff__error" id={errorId} role="alert" data-testid={testId ? `${testId}-error` : undefined}>
          {error}
        </p>
      ) : (
        hint && <p className="ff__hint">{hint}</p>
      )}
    </div>
  );
}

/** The error line alone, for controls that are not a text input (checkbox, gender, lists). */
export function FieldError({ error, testId }: { error?: string | null; testId?: string }) {
  if (!error) return null;
  return (
    <p className="ff__error" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}
