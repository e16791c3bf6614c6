/**
 * GreptimeDB's list type (`ConcreteDataType::List`, named `List<Int64>`), the type of DataFusion's
 * arrays. Petrel holds an array as JSON text inside SQLite; the type name tells the renderers how to
 * show its elements.
 */

/** The list type of elements of type `element`. */
export function listOf(element: string): string {
  return `List<${element}>`;
}

/** Whether a `data_type` name is a list type. */
export function isListType(dataType: string): boolean {
  return dataType.startsWith("List<") && dataType.endsWith(">");
}

/** The element type of a list type name (undefined for any other type). */
export function listElement(dataType: string): string | undefined {
  return isListType(dataType) ? dataType.slice(5, -1) : undefined;
}
