/** How an exec of a program the image lacks fails (runc, crun and gVisor wording). */
export const NO_PROGRAM = /no such file or directory|executable file not found|not found in \$PATH/i;
