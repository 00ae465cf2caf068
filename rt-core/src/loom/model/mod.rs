//! What loom lacks or gets wrong for rt-core, built from loom's own
//! primitives, and the runner of bounded models: compiled only under
//! `--cfg loom`.

pub(crate) mod clock;
pub(crate) mod condvar;
pub(crate) mod counter;
pub(crate) mod explore;
pub(crate) mod mutex;
pub(crate) mod thread;
