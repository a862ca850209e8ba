// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SortDirection = {
  SORT_DIRECTION_UNSPECIFIED: 'SORT_DIRECTION_UNSPECIFIED',
  SORT_DIRECTION_DESCENDING: 'SORT_DIRECTION_DESCENDING',
  SORT_DIRECTION_ASCENDING: 'SORT_DIRECTION_ASCENDING',
} as const;

export type SortDirection =
  | 'SORT_DIRECTION_UNSPECIFIED'
  | 0
  | 'SORT_DIRECTION_DESCENDING'
  | 1
  | 'SORT_DIRECTION_ASCENDING'
  | 2

export type SortDirection__Output = typeof SortDirection[keyof typeof SortDirection]
