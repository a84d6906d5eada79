export { AUTOMATION_EVENT_JOB, emitAutomationEvent, type TAutomationEvent } from './automation-events';
