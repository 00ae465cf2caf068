//! [`OpenOptions`]: the builder that chooses how a [`File`] is opened.

use super::blocking::asyncify;
use super::File;
use std::io;
use std::path::Path;

/// Options and flags for opening a [`File`], the asynchronous counterpart
/// of [`std::fs::OpenOptions`].
///
/// ```
/// use rt_io::fs::OpenOptions;
/// use rt_io::io::AsyncWriteExt;
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let path = std::env::temp_dir().join(format!("rt-fs-doc-options-{}", std::process::id()));
///     let mut log = OpenOptions::new().create(true).append(true).open(&path).await?;
///     log.write_all(b"line\n").await?;
///     log.flush().await?;
///     rt_io::fs::remove_file(&path).await
/// })
/// .unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct OpenOptions(std::fs::OpenOptions);

impl OpenOptions {
    /// Options with every flag off.
    pub fn new() -> OpenOptions {
        OpenOptions(std::fs::OpenOptions::new())
    }

    /// Whether the file may be read.
    pub fn read(&mut self, read: bool) -> &mut OpenOptions {
        self.0.read(read);
        self
    }

    /// Whether the file may be written.
    pub fn write(&mut self, write: bool) -> &mut OpenOptions {
        self.0.write(write);
        self
    }

    /// Whether writes go to the end of the file, whatever the cursor.
    pub fn append(&mut self, append: bool) -> &mut OpenOptions {
        self.0.append(append);
        self
    }

    /// Whether an existing file is cut to length 0 when opened.
    pub fn truncate(&mut self, truncate: bool) -> &mut OpenOptions {
        self.0.truncate(truncate);
        self
    }

    /// Whether a missing file is created.
    pub fn create(&mut self, create: bool) -> &mut OpenOptions {
        self.0.create(create);
        self
    }

    /// Whether the file must not exist yet; opening then fails with
    /// `AlreadyExists` if it does.
    pub fn create_new(&mut self, create_new: bool) -> &mut OpenOptions {
        self.0.create_new(create_new);
        self
    }

    /// The permission bits a created file gets (before the umask). Unix
    /// only.
    #[cfg(unix)]
    pub fn mode(&mut self, mode: u32) -> &mut OpenOptions {
        std::os::unix::fs::OpenOptionsExt::mode(&mut self.0, mode);
        self
    }

    /// Extra flags passed to `open(2)`. Unix only.
    #[cfg(unix)]
    pub fn custom_flags(&mut self, flags: i32) -> &mut OpenOptions {
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut self.0, flags);
        self
    }

    /// Opens the file at `path` with these options.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::OpenOptions::open`]: `NotFound`,
    /// `AlreadyExists`, `PermissionDenied`, `InvalidInput` for a contradictory
    /// set of options, and so on.
    pub async fn open(&self, path: impl AsRef<Path>) -> io::Result<File> {
        let options = self.0.clone();
        let path = path.as_ref().to_owned();
        let std = asyncify(move || options.open(path)).await?;
        Ok(File::from_std(std))
    }
}

impl Default for OpenOptions {
    fn default() -> OpenOptions {
        OpenOptions::new()
    }
}

impl From<std::fs::OpenOptions> for OpenOptions {
    fn from(options: std::fs::OpenOptions) -> OpenOptions {
        OpenOptions(options)
    }
}
