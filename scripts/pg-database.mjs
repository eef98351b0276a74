// Creates or drops a PostgreSQL database (CI and tests): node scripts/pg-database.mjs create|drop URL NAME
import postgres from 'postgres';

const [action, baseUrl, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action ?? '') || !baseUrl || !/^[a-z_][a-z0-9_]{0,62}$/.test(name ?? '')) {
  console.error('usage: node scripts/pg-database.mjs create|drop postgres://user@host:5432 database_name');
  process.exit(2);
}
const sql = postgres(`${baseUrl.replace(/\/$/, '')}/postgres`, { max: 1, onnotice: () => {} });
try {
  if (action === 'create') await sql.unsafe(`create database "${name}"`);
  else await sql.unsafe(`drop database if exists "${name}" with (force)`);
  console.log(`${action === 'create' ? 'created' : 'dropped'} database ${name}`);
} finally {
  await sql.end({ timeout: 5 });
}
