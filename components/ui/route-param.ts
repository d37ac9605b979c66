/** A dynamic route segment as text; tolerant of a segment that arrives already decoded. */
export function routeParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
