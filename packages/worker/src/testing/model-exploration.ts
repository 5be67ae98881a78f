// Test helper: exhaustive exploration of a model's event sequences, pruned by abstract state. A model says
// how to start a run at each of its roots (a fresh transaction), how to apply each event of its alphabet,
// which events may happen in an abstract state, how to read the abstract state of a run, and how to let a
// run settle and check its end. The explorer goes breadth first: every applicable event after every
// state found at depth d is executed on a new run that replays the state's path and then the event. When
// the resulting abstract state was found before (at this depth or a smaller one, which breadth first
// guarantees), its futures were or will be explored from there, so this path stops; otherwise the run is
// settled and checked, and the state is expanded at the next depth.
//
// Sound when the abstract state decides everything that follows (the model's duty, argued in each model's
// header): the same state then has the same successors and the same settled end. Every state's first
// expansion replays its path and compares the state it reaches with the one recorded, so a model whose
// runs are not deterministic fails loudly instead of being pruned wrongly.
//
// Sequences are counted on the state graph: the number of sequences of at most n events from state s is
// 1 (the empty one) plus the sum, over the events applicable in s, of those of at most n - 1 from the
// state each leads to.

/** What the explorer needs of a model. `State` must serialise to JSON deterministically. */
export interface ExplorationModel<Run, State> {
  readonly roots: readonly string[];
  readonly events: readonly string[];
  /** A new run at `root`: a fresh transaction and fresh scripted providers. */
  start(root: string): Promise<Run>;
  apply(run: Run, event: string): Promise<void>;
  /** The abstract state of `run`; checks that hold in every state are made here too. */
  observe(run: Run): Promise<State>;
  /** Whether `event` may happen in `state`: decided from the abstract state alone. */
  applicable(state: State, event: string): boolean;
  /** What `run` violated so far. */
  violations(run: Run): readonly string[];
  /** Lets `run` settle as honest providers and time would, then checks its end; adds to its violations. */
  settle(run: Run): Promise<void>;
  /** Releases what `run` holds. */
  close(run: Run): Promise<void>;
}

export interface ExplorationOptions {
  /** The longest sequence explored. */
  readonly depth: number;
  /** Runs executed at once (each on its own transaction). */
  readonly concurrency: number;
  /** Stop at the first violation (for mutation tests). */
  readonly stopAtFirstViolation?: boolean;
  /** Told after each depth is explored. */
  readonly progress?: (line: string) => void;
}

/** A sequence that broke the model's checks. */
export interface ExplorationFailure {
  readonly sequence: string;
  readonly violations: readonly string[];
}

export interface Exploration {
  /** Distinct sequences of 1 to `depth` events from the roots, counted on the state graph. */
  readonly sequences: number;
  /** Runs executed: each root once, then one per applicable event after each state found. */
  readonly executed: number;
  /** Distinct abstract states found; each was settled and checked once. */
  readonly states: number;
  /** Shortest first. */
  readonly failures: readonly ExplorationFailure[];
}

interface Node<State> {
  readonly state: State;
  readonly root: string;
  readonly path: readonly string[];
  /** The state each applicable event leads to (undefined: it broke a check). */
  readonly next: Map<string, string | undefined>;
}

function describe(root: string, path: readonly string[]): string {
  return [`[${root}]`, ...path].join(' → ');
}

async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/** Explores every sequence of at most `options.depth` events of `model`; see the header. */
export async function explore<Run, State>(
  model: ExplorationModel<Run, State>,
  options: ExplorationOptions,
): Promise<Exploration> {
  const nodes = new Map<string, Node<State>>();
  const failures: ExplorationFailure[] = [];
  const rootKeys: (string | undefined)[] = [];
  let executed = 0;
  const stopped = () => options.stopAtFirstViolation === true && failures.length > 0;

  /** Runs `path` from `root`; returns the new state's key when it was new, or undefined. */
  async function execute(
    root: string,
    path: readonly string[],
    expected?: { readonly key: string; readonly after: number },
  ): Promise<{ key: string | undefined; fresh: boolean }> {
    const run = await model.start(root);
    executed += 1;
    try {
      for (const [index, event] of path.entries()) {
        await model.apply(run, event);
        if (expected !== undefined && index + 1 === expected.after) {
          const replayed = JSON.stringify(await model.observe(run));
          if (replayed !== expected.key) {
            throw new Error(
              `Expected replaying ${describe(root, path.slice(0, index + 1))} to reach the state found before, ` +
                `reached another: the model is not deterministic.\nbefore: ${expected.key}\nnow:    ${replayed}`,
            );
          }
        }
      }
      const state = await model.observe(run);
      const seen = model.violations(run);
      if (seen.length > 0) {
        failures.push({ sequence: describe(root, path), violations: [...seen] });
        return { key: undefined, fresh: false };
      }
      const key = JSON.stringify(state);
      if (nodes.has(key)) return { key, fresh: false };
      nodes.set(key, { state, root, path, next: new Map() });
      await model.settle(run);
      const settled = model.violations(run);
      if (settled.length > 0) {
        failures.push({ sequence: `${describe(root, path)} → (settled)`, violations: [...settled] });
      }
      return { key, fresh: true };
    } finally {
      await model.close(run);
    }
  }

  for (const root of model.roots) {
    const { key } = await execute(root, []);
    rootKeys.push(key);
  }
  let frontier = [...nodes.keys()];
  for (let depth = 1; depth <= options.depth && !stopped(); depth += 1) {
    const tasks = frontier.flatMap((key) => {
      const node = nodes.get(key) as Node<State>;
      const events = model.events.filter((event) => model.applicable(node.state, event));
      return events.map((event, index) => ({ key, node, event, check: index === 0 }));
    });
    const found: string[] = [];
    await inParallel(tasks, options.concurrency, async ({ key, node, event, check }) => {
      if (stopped()) return;
      const path = [...node.path, event];
      const expected = check && node.path.length > 0 ? { key, after: node.path.length } : undefined;
      const outcome = await execute(node.root, path, expected);
      node.next.set(event, outcome.key);
      if (outcome.fresh && outcome.key !== undefined) found.push(outcome.key);
    });
    frontier = found;
    options.progress?.(
      `depth ${depth}: ${tasks.length} runs, ${found.length} new states, ${nodes.size} states, ${executed} runs so far`,
    );
  }

  const counted = new Map<string, number>();
  const sequencesFrom = (key: string | undefined, depth: number): number => {
    if (key === undefined || depth === 0) return 1;
    const memo = `${depth}:${key}`;
    const known = counted.get(memo);
    if (known !== undefined) return known;
    const node = nodes.get(key) as Node<State>;
    let total = 1;
    for (const next of node.next.values()) total += sequencesFrom(next, depth - 1);
    counted.set(memo, total);
    return total;
  };
  const sequences = stopped()
    ? 0
    : rootKeys.reduce((sum, key) => sum + sequencesFrom(key, options.depth) - 1, 0);
  failures.sort((a, b) => a.sequence.split(' → ').length - b.sequence.split(' → ').length);
  return { sequences, executed, states: nodes.size, failures };
}

/** The depth issue 25 asks for; EXHAUSTIVE_DEPTH shortens it for a quick look. */
export const EXPLORATION_DEPTH = Number(process.env.EXHAUSTIVE_DEPTH ?? 6);

/** Explores `model` to EXPLORATION_DEPTH, printing each depth and then the counts, each line under `label`. */
export async function exploreAndReport<Run, State>(
  label: string,
  model: ExplorationModel<Run, State>,
  concurrency: number,
): Promise<Exploration> {
  const started = Date.now();
  const exploration = await explore(model, {
    depth: EXPLORATION_DEPTH,
    concurrency,
    progress: (line) => {
      console.log(`[${label}] ${line}`);
    },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `[${label}] ${exploration.sequences} sequences of 1 to ${EXPLORATION_DEPTH} events covered by ` +
      `${exploration.executed} runs over ${exploration.states} states, in ${seconds} s`,
  );
  return exploration;
}
