export {
  AUTOMATION_EVENT_JOB,
  emitAutomationEvent,
  emitAutomationEvents,
  type TAutomationEvent,
} from './automation-events';
