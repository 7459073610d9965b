import {
  BREAK,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";

// What a document selects, read once when it is first seen, for the choices
// made per document (graphql-jit or graphql-js, REST's respelling).

/** Whether the document (its fragments included) selects a field that passes `test`. */
export function selectsField(
  schema: GraphQLSchema,
  document: DocumentNode,
  test: (field: GraphQLField<unknown, unknown>) => boolean,
): boolean {
  const types = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field() {
        const field = types.getFieldDef();
        if (!field || !test(field)) return undefined;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}
