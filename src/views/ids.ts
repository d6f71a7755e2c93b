/**
 * Every `action_id`, `block_id` and `callback_id` vidops uses, in one place, so that views and
 * handlers cannot drift apart. Button values carry only a request ID or a resource ID, never
 * parameters: the server looks everything else up.
 */
export const ACTIONS = {
  // Everyday commands
  explainUnblock: 'explain_unblock',
  viewerHistory: 'viewer_history',
  explainRetry: 'explain_retry',
  whitelistAdd: 'whitelist_add',
  whitelistRemove: 'whitelist_remove',
  // Approval message and App Home
  approve: 'request_approve',
  reject: 'request_reject',
  cancel: 'request_cancel',
  /** The requester nudges the approvers who have not decided. */
  remind: 'request_remind',
  // Approval message of a request whose outcome is unknown
  resolveCheck: 'request_resolve_check',
  resolveApplied: 'request_resolve_applied',
  resolveNotApplied: 'request_resolve_not_applied',
  resolveSendAgain: 'request_resolve_send_again',
  // App Home
  homeRefresh: 'home_refresh',
  // Shortcuts: a number or file ID offered in a message shortcut's modal, and the global menu
  shortcutUnblockPick: 'shortcut_unblock_pick',
  shortcutRetryPick: 'shortcut_retry_pick',
  menuUnblock: 'menu_unblock',
  menuRetry: 'menu_retry',
  menuProtect: 'menu_protect',
  menuWhitelistAdd: 'menu_whitelist_add',
  menuWhitelistRemove: 'menu_whitelist_remove',
  // Break-glass: the requester's button, and a lead's review (docs/architecture.md, "Break-glass and delegation")
  breakGlass: 'break_glass_open',
  breakGlassAcknowledge: 'break_glass_acknowledge',
  breakGlassFlag: 'break_glass_flag',
  // Changes that undo themselves (docs/time-boxed.md): a time-boxed change's buttons, and Revert…
  putBackNow: 'time_box_put_back_now',
  extend: 'time_box_extend',
  revert: 'request_revert',
  // Many numbers at once (docs/commands.md): the preview's buttons (value: its draft ID), the
  // batch message's (value: the request ID, and a step's place for History), the form's openers
  batchConfirm: 'batch_confirm',
  batchCancel: 'batch_cancel',
  batchRetry: 'batch_retry_failed',
  batchHistory: 'batch_history',
  unblockManyOpen: 'unblock_many_open',
  menuUnblockMany: 'menu_unblock_many',
} as const;

/** The `callback_id`s of the shortcuts declared in manifest.yml. */
export const SHORTCUTS = {
  /** Message shortcut "Unblock viewer". */
  unblockFromMessage: 'unblock_from_message',
  /** Message shortcut "Retry conversion". */
  retryFromMessage: 'retry_from_message',
  /** Global shortcut: the menu of vidops actions. */
  menu: 'vidops_menu',
} as const;

export const CALLBACKS = {
  unblock: 'unblock_modal',
  retry: 'retry_modal',
  whitelistChange: 'whitelist_change_modal',
  protect: 'protect_modal',
  folderCreate: 'folder_create_modal',
  folderEdit: 'folder_edit_modal',
  fileEdit: 'file_edit_modal',
  playlistCreate: 'playlist_create_modal',
  playlistEdit: 'playlist_edit_modal',
  deleteConfirm: 'delete_confirm_modal',
  rejectReason: 'reject_reason_modal',
  /** A lead's note when marking an unknown outcome applied or not applied. */
  resolveNote: 'resolve_note_modal',
  /** Break-glass: the reason and the typed words; a lead's note when flagging. */
  breakGlass: 'break_glass_modal',
  breakGlassFlag: 'break_glass_flag_modal',
  /** A new end for a time-boxed change in force; the inverse of a done change, shown before it is asked. */
  extend: 'time_box_extend_modal',
  revertConfirm: 'revert_confirm_modal',
  /** Loading, progress and result views of the change modals: nothing to submit. */
  changeStatus: 'change_status_modal',
  /** The numbers (file IDs) a message shortcut found, one button each; nothing to submit. */
  shortcutUnblock: 'shortcut_unblock_modal',
  shortcutRetry: 'shortcut_retry_modal',
  /** The global shortcut's menu. */
  menu: 'vidops_menu_modal',
  /** Unblock many: the pasted list (its submit shows the preview). */
  unblockMany: 'unblock_many_modal',
  /** The kind of a batch preview's draft (not a modal: the preview message holds its ID). */
  batchPreview: 'batch_preview',
} as const;

export const BLOCKS = {
  mobile: 'mobile',
  mobileList: 'mobile_list',
  fileId: 'file_id',
  ips: 'ips',
  reason: 'reason',
  confirmText: 'confirm_text',
  title: 'title',
  description: 'description',
  cover: 'cover',
  playlistFiles: 'playlist_files',
  rejectNote: 'reject_note',
  resolveNote: 'resolve_note',
  requestActions: 'request_actions',
  breakGlassReason: 'break_glass_reason',
  breakGlassWords: 'break_glass_words',
  breakGlassNote: 'break_glass_note',
  breakGlassActions: 'break_glass_actions',
  /** "Put back after" of the protection, whitelist and Extend… modals: the choice, and a typed window. */
  putBackAfter: 'put_back_after',
  putBackTyped: 'put_back_typed',
  /** Prefixes: Put back now / Extend… of one time-boxed change, Revert… of one done change. */
  timeBoxActions: 'time_box_actions',
  revertActions: 'revert_actions',
  /** Prefixes: one block per protection setting group (checkboxes) and per non-boolean setting. */
  protectGroup: 'protect_group:',
  protectField: 'protect_field:',
} as const;

/** The `action_id` of every input element of the change modals; the block says which field it is. */
export const INPUT_ACTION = 'value';

/** Block of the Approve/Reject/Cancel buttons of one request; unique when a view lists several. */
export function requestActionsBlock(requestId: string): string {
  return `${BLOCKS.requestActions}:${requestId}`;
}

/** Block of the `n`-th item a shortcut's modal offers (a number, a file ID), with its button. */
export function shortcutPickBlock(actionId: string, n: number): string {
  return `${actionId}:${n}`;
}

/** Block of one protection group's checkboxes, e.g. `protect_group:watermark`. */
export function protectGroupBlock(group: string): string {
  return `${BLOCKS.protectGroup}${group}`;
}

/** Block of one non-boolean protection setting, e.g. `protect_field:link.expireTime`. */
export function protectFieldBlock(field: string): string {
  return `${BLOCKS.protectField}${field}`;
}
