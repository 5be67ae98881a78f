// Reads a submitted form's text fields by name. Forms here are uncontrolled: a filter or a change is
// taken when it is submitted, not on every keystroke.

/** A reader of the form's fields as they are now: a missing or file field reads "". */
export function formFields(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
}
