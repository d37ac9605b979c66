// Reading a list view's page, page size and multi-value filters from the query string,
// forgiving anything a person might type into the address bar.

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export function pageOf(value: string | null): number {
  return value && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

export function limitOf(value: string | null): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : PAGE_SIZES[0];
}

export function listOf(value: string | null): string[] {
  return value ? [...new Set(value.split(",").map((v) => v.trim()).filter(Boolean))] : [];
}
