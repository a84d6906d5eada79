// The leave feature's public surface: holidays, work patterns, leave types, the balance ledger and
// requests. Capacity and timesheets read `availableMinutes`.

export { visibleLeaveAttachment } from './attachments';
export { registerLeaveAttachmentRoutes } from './attachments-http';
export {
  approvedLeaveStarting,
  availabilityOn,
  memberDays,
  type TMemberAvailability,
  type TMemberDay,
} from './availability';
export { registerLeaveJobs, runLeaveForOrg } from './jobs';
export { availableMinutes } from './lists';
export { leaveRouter } from './router';
