//! [`DirBuilder`]: creating directories with options.

use super::blocking::asyncify;
use std::io;
use std::path::Path;

/// Creates directories, optionally with their parents and (on Unix) a
/// permission mode; the asynchronous counterpart of [`std::fs::DirBuilder`].
///
/// ```
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let root = std::env::temp_dir().join(format!("rt-fs-doc-dirbuilder-{}", std::process::id()));
///     rt_io::fs::DirBuilder::new().recursive(true).create(root.join("a/b")).await?;
///     assert!(rt_io::fs::metadata(root.join("a/b")).await?.is_dir());
///     rt_io::fs::remove_dir_all(&root).await
/// })
/// .unwrap();
/// ```
#[derive(Debug, Default)]
pub struct DirBuilder {
    recursive: bool,
    #[cfg(unix)]
    mode: Option<u32>,
}

impl DirBuilder {
    /// A builder that creates one directory with default permissions.
    pub fn new() -> DirBuilder {
        DirBuilder::default()
    }

    /// Whether missing parents are created too. A recursive create also
    /// succeeds when the directory already exists.
    pub fn recursive(&mut self, recursive: bool) -> &mut DirBuilder {
        self.recursive = recursive;
        self
    }

    /// The permission bits for created directories (before the umask).
    /// Unix only.
    #[cfg(unix)]
    pub fn mode(&mut self, mode: u32) -> &mut DirBuilder {
        self.mode = Some(mode);
        self
    }

    /// Creates the directory at `path`.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::DirBuilder::create`]: `AlreadyExists` (not
    /// recursive), `NotFound` for a missing parent (not recursive), and so on.
    pub async fn create(&self, path: impl AsRef<Path>) -> io::Result<()> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(self.recursive);
        #[cfg(unix)]
        if let Some(mode) = self.mode {
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
        }
        let path = path.as_ref().to_owned();
        asyncify(move || builder.create(path)).await
    }
}
