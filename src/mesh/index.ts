/** The agent mesh: named sessions per project, messages, channels, wait, work items and workers. */
export { Mesh, processAlive, type MeshOptions, type WaitResult } from './mesh.ts';
export { WorkerManager, type WorkerConfig, type WorkerSettings } from './workers.ts';
export { openMeshStore } from './open-store.ts';
export { SqliteMeshStore, MESH_DB_FILE } from './sqlite-store.ts';
export { INBOX_CAP, LEASE_MS, MAX_MESSAGE_BYTES, MAX_WAIT_MS, MAX_DETAIL_CHARS } from './limits.ts';
export { InboxFullError, NameTakenError, NotRegisteredError, UnknownPeerError } from './errors.ts';
export type { AgentRecord, AgentState, MeshStore, MessageRecord, SendResult, WorkerRecord, WorkItem } from './store.ts';
