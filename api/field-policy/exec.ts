/** Field rules (api/field-policy.ts) of Exec, StreamExec, the file calls and StreamLogs. */
import { c, h, type Rule } from "./rule.js";

const PRIMARY_ONLY =
  "a container of the sandbox by name (empty: the primary); a sidecar's runs its command, file or log there (plain exec: the exec agent serves the primary); a name the sandbox does not have is INVALID_ARGUMENT";

export const EXEC_RULES: Record<string, Rule> = {
  // Exec, files, logs
  "ExecRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "ExecRequest.command": h("argv (1 MiB in all)", "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters"),
  "ExecRequest.env": h(
    "added to the sandbox's environment (256 KiB)",
    "test/unit/field-effects.test.ts::Exec and StreamExec: env reaches the command",
    "test/unit/agent-channel.test.ts::stdout and stderr apart, env merged over the agent's",
  ),
  "ExecRequest.max_output_bytes": h(
    "output kept per stream, the rest counted and flagged truncated",
    "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters",
  ),
  "ExecRequest.container": c(PRIMARY_ONLY),
  "ExecStreamRequest.init": h(
    "the command, below",
    "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr",
    "test/unit/server.test.ts::creates, gets, and runs a StreamExec",
  ),
  "ExecStreamRequest.stdin": h(
    "bytes to the command's stdin, in order, with backpressure",
    "test/e2e/test_sdk_exec.py::test_stdin_streaming_with_eof",
  ),
  "ExecStreamRequest.resize": h("the terminal's new size (TTY commands)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamRequest.close": h("EOF on the command's stdin", "test/e2e/test_sdk_exec.py::test_stdin_streaming_with_eof"),
  "ExecStreamInit.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "ExecStreamInit.command": h("argv (1 MiB in all)", "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr"),
  "ExecStreamInit.tty": h("a pseudo-terminal", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.tty_width": h("its columns (below 10000)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.tty_height": h("its rows (below 10000)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.env": h(
    "added to the sandbox's environment (256 KiB)",
    "test/unit/field-effects.test.ts::Exec and StreamExec: env reaches the command",
    "test/unit/agent-channel.test.ts::stdout and stderr apart, env merged over the agent's",
  ),
  "ExecStreamInit.container": c(PRIMARY_ONLY),
  "ExecStreamResize.width": h("columns", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamResize.height": h("rows", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "StreamLogsRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps",
  ),
  "StreamLogsRequest.follow": h(
    "keep streaming until the sandbox ends",
    "test/e2e/test_sdk_files_logs.py::test_follow_logs_end_when_the_main_process_exits",
  ),
  "StreamLogsRequest.tail_lines": h("only the last lines", "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps"),
  "StreamLogsRequest.since_time": h(
    "only lines after it",
    "test/unit/field-effects.test.ts::StreamLogs: since_time is the instant the runtime's lines must follow",
    "test/unit/log-store.test.ts::keeps whole lines across reads and streams, with tail, since and timestamps",
  ),
  "StreamLogsRequest.container": c(PRIMARY_ONLY),
  "StreamLogsRequest.timestamps": h("a timestamp per entry", "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps"),
  "StreamLogsRequest.resume_log_session_id": c(
    "a log_session_id this sandbox's stream sent: the stream continues at resume_log_offset in the same format (tail and since ignored). Another sandbox's session, or a log that restarted: a SESSION_NOT_FOUND error frame (the SDK then starts afresh). Entries carry log_session_id and next_log_offset (raw bytes, timestamp prefixes not counted) on both runtimes; on Kubernetes not for streams with timestamps or since_time",
  ),
  "StreamLogsRequest.resume_log_offset": c(
    "with resume_log_session_id: where to continue; past the log's end an INVALID_RESUME_OFFSET frame, before what the local runtime keeps a REPLAY_GAP frame; without a session: INVALID_ARGUMENT",
  ),
  "WriteFileRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "WriteFileRequest.path": h(
    "absolute path",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_files_logs.py::test_paths_stay_inside_the_sandbox",
  ),
  "WriteFileRequest.content": h(
    "the file's bytes (at most HANGAR_MAX_FILE_BYTES)",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/unit/controller.test.ts::writes over the size limit are refused with FILE_TOO_LARGE",
  ),
  "WriteFileRequest.container": c(PRIMARY_ONLY),
  "ReadFileRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_wire.py::test_unknown_sandbox_is_not_found_with_reason",
  ),
  "ReadFileRequest.path": h(
    "absolute path",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_files_logs.py::test_missing_file_error",
  ),
  "ReadFileRequest.container": c(PRIMARY_ONLY),
};
