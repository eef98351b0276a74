import Swal from 'sweetalert2';

/** Words of the remove confirmation (docs/design.md section 5). */
export const REMOVE_TITLE = 'คุณแน่ใจไหม ?';
export const REMOVE_TEXT = 'คุณจะไม่สามารถย้อนกลับได้ !';

/**
 * The SweetAlert2 dialog behind confirmRemove, in a module of its own so that it and SweetAlert2 are
 * downloaded on the first removal only, not by every page whose navbar can remove (docs/decisions/147).
 */
export async function askRemove(): Promise<boolean> {
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
}
