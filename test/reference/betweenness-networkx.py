# Regenerates betweenness-networkx.json: networkx betweenness_centrality(G, normalized=True) on the
# DiGraph of each shared graph fixture (parallel arcs collapse in a DiGraph; self-loops never lie on
# a shortest path). Run: python3 test/reference/betweenness-networkx.py test/fixtures/graph-fixtures
import json, sys
import networkx as nx

src = sys.argv[1]
names = ['empty', 'single-node', 'single-self-loop', 'loops-and-multi-edges', 'disconnected',
         'directed-cycle-with-tail', 'dag-dangling', 'two-cliques-bridge', 'karate-both-directions', 'sbm-11']
out = {'networkx': nx.__version__, 'graphs': {}}
for name in names:
    d = json.load(open(f'{src}/{name}.json'))
    G = nx.DiGraph()
    G.add_nodes_from(range(d['n']))
    G.add_edges_from(d['edges'])
    bc = nx.betweenness_centrality(G, normalized=True)
    out['graphs'][name] = [bc[v] for v in range(d['n'])]
json.dump(out, open(__file__.replace('.py', '.json'), 'w'), separators=(',', ':'))
