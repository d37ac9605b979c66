import { z } from "zod";

/** A time in a record, as the API writes it. */
export const isoDateTime = z.iso.datetime().meta({ example: "2026-01-02T03:04:05.000Z" });
