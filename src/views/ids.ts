/**
 * Every `action_id`, `block_id` and `callback_id` vidops uses, in one place, so that views and
 * handlers cannot drift apart. Button values carry only a request ID or a resource ID, never
 * parameters: the server looks everything else up.
 */
export const ACTIONS = {
  // Everyday commands
  explainUnblock: 'explain_unblock',
  explainRetry: 'explain_retry',
  whitelistAdd: 'whitelist_add',
  whitelistRemove: 'whitelist_remove',
  // Approval message and App Home
  approve: 'request_approve',
  reject: 'request_reject',
  cancel: 'request_cancel',
  // App Home
  homeRefresh: 'home_refresh',
} as const;

export const CALLBACKS = {
  unblock: 'unblock_modal',
  whitelistChange: 'whitelist_change_modal',
  protect: 'protect_modal',
  folderCreate: 'folder_create_modal',
  folderEdit: 'folder_edit_modal',
  fileEdit: 'file_edit_modal',
  playlistEdit: 'playlist_edit_modal',
  deleteConfirm: 'delete_confirm_modal',
  rejectReason: 'reject_reason_modal',
} as const;

export const BLOCKS = {
  mobile: 'mobile',
  ips: 'ips',
  reason: 'reason',
  confirmText: 'confirm_text',
  title: 'title',
  description: 'description',
  cover: 'cover',
  playlistFiles: 'playlist_files',
  rejectNote: 'reject_note',
  requestActions: 'request_actions',
} as const;

export type ActionId = (typeof ACTIONS)[keyof typeof ACTIONS];
export type CallbackId = (typeof CALLBACKS)[keyof typeof CALLBACKS];
