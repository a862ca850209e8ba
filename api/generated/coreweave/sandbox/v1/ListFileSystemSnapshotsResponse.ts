// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { FileSystemSnapshot as _coreweave_sandbox_v1_FileSystemSnapshot, FileSystemSnapshot__Output as _coreweave_sandbox_v1_FileSystemSnapshot__Output } from '../../../coreweave/sandbox/v1/FileSystemSnapshot.js';

export interface ListFileSystemSnapshotsResponse {
  'file_system_snapshots'?: (_coreweave_sandbox_v1_FileSystemSnapshot)[];
  'next_page_token'?: (string);
}

export interface ListFileSystemSnapshotsResponse__Output {
  'file_system_snapshots'?: (_coreweave_sandbox_v1_FileSystemSnapshot__Output)[];
  'next_page_token'?: (string);
}
