/** The skill library (teach/revise/approve) and the `learn` setting. */
export { SkillLibrary, SkillNotFoundError, type SkillMeta, type SkillRevision, type SkillScope, type SkillStatus, type SkillStore, type Installation } from './library.ts';
export { FileSkillStore } from './store.ts';
export { readSettings, setLearn, setSwitch, setWorkerCommand, settingsFile, DEFAULT_WORKER_LIMIT_SECONDS, type Settings, type WorkerCommand } from './settings.ts';
export { renderSkillFile, checkSkillName, checkDescription, checkInstructions } from './skill-file.ts';
export { dataDir, claudeDir, projectRoot, type Env } from './paths.ts';
