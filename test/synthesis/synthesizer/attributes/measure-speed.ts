/**
 * Not a test: measures the attributes step on a 30,000-person toy suburb (wall and CPU time,
 * persons/s). Run: npx tsx test/synthesis/synthesizer/attributes/measure-speed.ts [persons]
 * CPU time is the fair figure on a shared machine (other jobs stretch wall time, not CPU time).
 */
import { assignAttributes } from '../../../../src/synthesis/synthesizer/attributes/index.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { randomTargets, structureFor, targetsOf } from './fixture.ts';

const persons = Number(process.argv[2] ?? 30_000);
const structure = structureFor(persons, 5);
const targets = targetsOf(assignAttributes(structure, randomTargets(persons, 9), createRng(1), { smallSuburb: false }));
for (let run = 0; run < 3; run++) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  assignAttributes(structure, targets, createRng(11 + run), { smallSuburb: false });
  const wall = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `persons ${structure.persons.count}  wall ${wall.toFixed(0)} ms  cpu ${cpuMs.toFixed(0)} ms  ` +
      `${Math.round((structure.persons.count / cpuMs) * 1000)} persons/s (cpu)`,
  );
}
