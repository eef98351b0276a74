import { parse as pgliteParse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { plannedPerValue } from './plan-per-value.ts';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
type DataRow = InstanceType<typeof protocol.messages.DataRowMessage>;
type CommandComplete = InstanceType<typeof protocol.messages.CommandCompleteMessage>;

/**
 * Named prepared statements for the embedded database (docs/decisions/123).
 *
 * PGlite's `query()` parses, describes and runs every statement from scratch, in six calls into the
 * WebAssembly module, and copies its whole parser table when the caller brings parsers (Drizzle
 * always does). The shop sends the same few hundred statement texts over and over, so that was half
 * the database time of a catalog page. This does what postgres.js does on a PostgreSQL server: each
 * text is parsed once into a named statement, and each run is one Bind/Describe/Execute/Sync round
 * trip.
 *
 * Planning is the other half: a products statement is planned against some twenty indexes, and the
 * embedded database asks its file system for the size of each of them on every plan (46 such calls
 * for one product lookup, 5 once its plan is kept). So a named statement is left to PostgreSQL's
 * own plan cache (`plan_cache_mode = auto`: a generic plan once five custom ones show it costs no
 * more). A statement with a text pattern (`like`, `strpos`, trigram similarity) runs as an unnamed
 * statement instead, which PostgreSQL always plans for its values: how common a search word is
 * decides its plan, and a generic plan cannot see it (docs/decisions/123, 125).
 *
 * Only top-level `query()` calls go through here; transactions keep PGlite's own path.
 */
/** Statement texts kept parsed; the least recently used is closed past this. */
const MAX_STATEMENTS = 500;

interface Prepared {
  name: string;
  paramTypes: number[];
  /** Planned for its values on every run (an unnamed statement), see above. */
  plannedPerValue: boolean;
}

/**
 * The answer of one statement, as PGlite's own `parseResults` gives it, without that function's copy
 * of the whole parser table (318 types) on every call that brings its own parsers, as Drizzle's do:
 * that copy was a tenth of a millisecond per query and much of the garbage collector's work.
 */
function readResult<T>(messages: BackendMessage[], client: PGlite, options: QueryOptions | undefined): Results<T> {
  const own = options?.parsers;
  const asArrays = options?.rowMode === 'array';
  let fields: { name: string; dataTypeID: number }[] = [];
  const rows: unknown[] = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as RowDescription).fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
    } else if (message.name === 'dataRow') {
      const values = (message as DataRow).fields.map((text, index) => {
        if (text === null) return null;
        const type = fields[index]?.dataTypeID ?? 0;
        const parser = own?.[type] ?? client.parsers[type];
        return parser ? parser(text, type) : text;
      });
      rows.push(asArrays ? values : Object.fromEntries(fields.map((field, index) => [field.name, values[index]])));
    } else if (message.name === 'commandComplete') {
      const words = (message as CommandComplete).text.split(' ');
      const command = words[0] ?? '';
      const count = Number.parseInt(words[words.length - 1] ?? '', 10);
      const changes = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) && !Number.isNaN(count) ? count : 0;
      return { rows: rows as T[], fields, command, affectedRows: changes, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results<T>;
    }
  }
  return { rows: [], fields: [], affectedRows: 0 } as Results<T>;
}

export function usePreparedStatements(client: PGlite, maxStatements = MAX_STATEMENTS): void {
  const statements = new Map<string, Prepared>();
  let counter = 0;
  const plainQuery = client.query.bind(client);
  const { serialize } = protocol;

  async function prepare(text: string, options?: QueryOptions): Promise<Prepared> {
    const known = statements.get(text);
    if (known) {
      // Most recently used last, so the oldest is the one let go.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    if (statements.size >= maxStatements) {
      const [oldestText, oldest] = statements.entries().next().value as [string, Prepared];
      statements.delete(oldestText);
      await client.execProtocol(Buffer.concat([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]), { syncToFs: false });
    }
    const name = `shop_${++counter}`;
    const { messages } = await client.execProtocol(
      Buffer.concat([serialize.parse({ name, text, types: options?.paramTypes }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const prepared = { name, paramTypes: pgliteParse.parseDescribeStatementResults(messages), plannedPerValue: plannedPerValue(text) };
    statements.set(text, prepared);
    return prepared;
  }

  async function run<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const prepared = await prepare(text, options);
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const oid = prepared.paramTypes[index] ?? 0;
      const serializer = options?.serializers?.[oid] ?? client.serializers[oid];
      return serializer ? serializer(param) : String(param);
    });
    // Parsed again as the unnamed statement, in the same round trip: PostgreSQL plans an unnamed
    // statement for its values every time.
    const parse = prepared.plannedPerValue ? [serialize.parse({ name: '', text, types: prepared.paramTypes })] : [];
    const { messages } = await client.execProtocol(
      Buffer.concat([...parse, serialize.bind({ statement: prepared.plannedPerValue ? '' : prepared.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    return readResult<T>(messages, client, options);
  }

  const query = async <T,>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    // Files handed to COPY keep PGlite's own path, which manages them.
    if (options?.blob) return plainQuery<T>(text, params, options);
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params, options);
        } finally {
          await client.syncToFs();
        }
      }),
    );
  };
  client.query = query as PGlite['query'];
}
