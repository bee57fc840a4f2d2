/** "1 order", "2 orders": a count with its noun, singular or plural as English wants it. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
