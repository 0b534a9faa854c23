/** The shard's file name in an output folder (`synaptic extract`, `synaptic migrate`): no SQLite loaded to know it. */
export const SHARD_FILE = 'graph.shard';
