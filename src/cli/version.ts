/** The CLI's version (`synaptic --version`, the server's serverInfo): the package's own. */
export { packageVersion } from '../graph/package.node.ts';
