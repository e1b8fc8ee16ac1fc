import { z } from "zod";

/**
 * The offline protocols a system's lists may answer (Breese, Heckerman and Kadie 1998): given m
 * members of the committee (m = 2, 5, 10), or all but one. Here so the lists import (client and
 * server) and scripts/offline read the same names.
 */
export const PROTOCOLS = ["given-2", "given-5", "given-10", "all-but-1"] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

/**
 * A lists import's optional `protocol` cell: empty, or `PROTOCOL:SEED` as `assay protocol split` writes
 * it into every input line (the seed says which split the lists answer, so the report can redo it).
 */
export const protocolCell = z
  .string()
  .refine((v) => v === "" || PROTOCOLS.some((p) => v.startsWith(`${p}:`) && v.length > p.length + 1), {
    message: `protocol must be empty or one of ${PROTOCOLS.join(", ")} followed by :SEED (as given-2:7), as assay protocol split writes it`,
  });
