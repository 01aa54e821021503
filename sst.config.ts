import type { SSTConfig } from 'sst';
import { Glance } from './stacks/Glance.ts';

/** Stages named here keep their buckets when removed; any other stage is disposable and deletes them. */
const KEPT_STAGES = new Set(['prod', 'production']);

export default {
  config() {
    return { name: 'glance', region: process.env.AWS_REGION ?? 'us-east-1' };
  },
  stacks(app) {
    if (!KEPT_STAGES.has(app.stage)) app.setDefaultRemovalPolicy('destroy');
    app.stack(Glance);
  },
} satisfies SSTConfig;
