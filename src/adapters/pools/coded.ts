/**
 * The label index that a coded column (csv, xlsx, parquet ENUM) writes as an empty cell, NULL.
 * Pool ENUMs have at most 255 labels (writer.ts refuses more), so no label has this index.
 */
export const NULL_CODE = 255;
