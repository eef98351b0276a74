/** Words of the remove confirmation (DESIGN.md section 5). */
export const REMOVE_TITLE = 'คุณแน่ใจไหม ?';
export const REMOVE_TEXT = 'คุณจะไม่สามารถย้อนกลับได้ !';

let open = false;

/** True while the confirmation is on screen, so a dropdown does not treat its clicks as "outside". */
export function confirmationOpen(): boolean {
  return open;
}

/**
 * Asks before a line leaves the cart. SweetAlert2 is loaded on first use only: pages that never remove
 * anything never download it.
 */
export async function confirmRemove(): Promise<boolean> {
  open = true;
  try {
    const { default: Swal } = await import('sweetalert2');
    const result = await Swal.fire({
      icon: 'warning',
      title: REMOVE_TITLE,
      text: REMOVE_TEXT,
      showCancelButton: true,
      confirmButtonText: 'ตกลง',
      cancelButtonText: 'ยกเลิก',
      confirmButtonColor: '#dc3545',
      cancelButtonColor: '#6c757d',
      focusCancel: true,
      // No pop-in/fade: the dialog is there (and its buttons still) the moment it is announced, and it
      // closes at once, so a quick second tap cannot meet a half-closed dialog.
      showClass: { popup: '', backdrop: 'swal2-backdrop-show', icon: '' },
      hideClass: { popup: '', backdrop: '', icon: '' },
    });
    return result.isConfirmed;
  } finally {
    open = false;
  }
}
