// @ts-check
// The paper's presets from the engine's one list (csc::experiment::presets, `paperPresets()`):
// id, label, dataset, quick settings and the descriptions generated from their definitions. The
// paper view builds its menu and runs from it; the offline view takes its quick settings from it.
import { paperPresets } from '../pkg/csc.js';

let presets;
/** id → PaperPreset (the engine's list, read once after the module is initialised). */
export const presetsOf = () => (presets ??= new Map(paperPresets().map((p) => [p.id, p])));

/** The request fields of quick settings (as exp-worker.js takes them), without the seeds. */
export const quickFields = (q) => ({ overrides: q.overrides, ...(q.sweepValues ? { sweepValues: q.sweepValues } : {}), ...(q.drop.length ? { drop: q.drop } : {}) });

/** The request fields of a preset's quick settings, seeds included. */
export const quickRequest = (q) => ({ seeds: q.seeds, ...quickFields(q) });
