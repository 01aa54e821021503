/**
 * `node --import tsx scripts/refresh-technologies.ts <webappanalyzer checkout>`: replaces the technology rules Glance
 * ships (lib/insights/webappanalyzer/) with those of a local checkout of https://github.com/enthec/webappanalyzer at
 * the commit it has checked out, and records that commit. Run deliberately, to update the rules (then run
 * tests/insights and bench/insights, and commit the result): nothing fetches rules at install, build or run time.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES_DIR, type RulesSource } from '../lib/insights/rules.ts';

const REPOSITORY = 'https://github.com/enthec/webappanalyzer';

const checkout = process.argv[2];
if (!checkout || !existsSync(join(checkout, 'src', 'technologies'))) {
  console.error('usage: node --import tsx scripts/refresh-technologies.ts <a checkout of enthec/webappanalyzer>');
  process.exit(2);
}
const git = (...args: string[]) => execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).trim();
if (git('status', '--porcelain', '--', 'src', 'LICENSE')) {
  console.error(`${checkout} has changes of its own: the rules must be a commit's, as published`);
  process.exit(1);
}

const target = RULES_DIR.pathname;
rmSync(join(target, 'technologies'), { recursive: true, force: true });
mkdirSync(join(target, 'technologies'), { recursive: true });
for (const name of readdirSync(join(checkout, 'src', 'technologies')).filter((file) => file.endsWith('.json'))) {
  copyFileSync(join(checkout, 'src', 'technologies', name), join(target, 'technologies', name));
}
copyFileSync(join(checkout, 'src', 'categories.json'), join(target, 'categories.json'));
copyFileSync(join(checkout, 'LICENSE'), join(target, 'LICENSE'));
const source: RulesSource = { repository: REPOSITORY, commit: git('rev-parse', 'HEAD'), committed: git('log', '-1', '--format=%cI') };
writeFileSync(join(target, 'source.json'), `${JSON.stringify(source, null, 2)}\n`);
console.log(`lib/insights/webappanalyzer: ${source.repository} at ${source.commit} (${source.committed})`);
