/// What `stagemix compose` and the worker that runs it as a child process agree on, written and read
/// by the same code on both sides: the progress lines compose prints on stdout (``ProgressLine``; a
/// followed composition's positions, ``FollowLine``), the status it exits with (``ExitStatus``), and
/// what the worker makes of a failed exit (``Failure``).
/// The worker passes the options through ``ComposeOptions/arguments``.
public enum ComposeChild {}
