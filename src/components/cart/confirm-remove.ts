let open = false;

/** True while the confirmation is on screen, so a dropdown does not treat its clicks as "outside". */
export function confirmationOpen(): boolean {
  return open;
}

/** Asks before a line leaves the cart; the dialog is loaded on first use (remove-dialog.ts). */
export async function confirmRemove(): Promise<boolean> {
  open = true;
  try {
    const { askRemove } = await import('./remove-dialog');
    return await askRemove();
  } finally {
    open = false;
  }
}
