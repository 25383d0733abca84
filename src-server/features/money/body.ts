import { z } from 'zod';

/** Any JSON object: for bodies whose rules are checked in order by a contract function. */
export const anyObject = z.record(z.string(), z.unknown());
