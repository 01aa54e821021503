import type { SSTConfig } from 'sst';
import { Glance } from './stacks/Glance.ts';

export default {
  config() {
    return { name: 'glance', region: process.env.AWS_REGION ?? 'us-east-1' };
  },
  stacks(app) {
    app.stack(Glance);
  },
} satisfies SSTConfig;
