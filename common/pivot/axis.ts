import { lazy } from '../lazy'

/**
 * One axis of a pivot (its rows or its columns) as a tree: the root is the grand total, each
 * level below it one field of the layout, outermost first. Every node has an id; a record adds
 * its numbers to each node on its chain (leaf up to the root), which is how subtotals and totals
 * come without a second pass.
 */
export interface AxisNode {
  id: number
  /** The value of this level's field; '' for the root. */
  label: string
  /** 0 for the root, 1 for the outermost field… */
  depth: number
  children: AxisNode[]
  /** The ids from this node up to the root (this node first). */
  chain: number[]
  /** Set on an "Others" row: it has no children and stands for the rows left out by top N. */
  others?: boolean
  byLabel?: Map<string, AxisNode>
}

export class Axis {
  readonly root: AxisNode = { id: 0, label: '', depth: 0, children: [], chain: [0] }
  readonly nodes: AxisNode[] = [this.root]

  constructor(readonly depth: number) {}

  /** The leaf for one record's labels on this axis, made on first sight. */
  leaf(labels: readonly string[]): AxisNode {
    let node = this.root
    for (const label of labels) {
      node.byLabel ??= new Map()
      let child = node.byLabel.get(label)
      if (child === undefined) {
        child = this.add(node, label)
        node.byLabel.set(label, child)
      }
      node = child
    }
    return node
  }

  /** A node below `parent` that no record made (the "Others" row). */
  add(parent: AxisNode, label: string): AxisNode {
    const id = this.nodes.length
    const child: AxisNode = { id, label, depth: parent.depth + 1, children: [], chain: [id, ...parent.chain] }
    parent.children.push(child)
    this.nodes.push(child)
    return child
  }

  /** The node a header path names ("Total" as the last label: that node's subtotal); null when none does. */
  find(path: readonly string[] | null): AxisNode | null {
    if (path === null) return this.root
    let node = this.root
    for (const label of path) {
      const child = node.byLabel?.get(label) ?? node.children.find((candidate) => candidate.label === label)
      if (child === undefined) return label === TOTAL_LABEL ? node : null
      node = child
    }
    return node
  }
}

export const TOTAL_LABEL = 'Total'
export const OTHERS_LABEL = 'Others'

/** The labels from the outermost level down to `node`. */
export function pathOf(node: AxisNode, nodes: readonly AxisNode[]): string[] {
  const path: string[] = []
  for (let index = node.chain.length - 2; index >= 0; index -= 1) path.push((nodes[node.chain[index] as number] as AxisNode).label)
  return path
}

/** Labels compare as people read them: "Publisher 2" before "Publisher 10". */
export const labelCollator = lazy(() => new Intl.Collator('en', { numeric: true, sensitivity: 'base' }))
