//! The database on disk: one file per rule set, `<variant>.egdb`, each slice's values
//! compressed with deflate (zlib). Layout: `DSKEGDB2`, the rule set's name (a length byte and
//! the name), the most pieces, the number of slices, then per slice its four counts, the number
//! of entries (u64: White to move), the bytes an entry (1 or 2, [`Table`]), the compressed
//! length (u64) and the compressed values (two-byte ones little-endian).

use super::index::MAX_PIECES;
use super::{Egdb, Slice, Table, key};
use doska_rules::Variant;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DSKEGDB2";

/// What can go wrong with an endgame database.
#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    /// The rule set's positions are more than pieces and a side to move.
    #[error("{0} has no endgame database: its positions also hold king runs or columns")]
    Unsupported(Variant),
    /// Too few or too many pieces asked for.
    #[error("an endgame database holds 2 to {MAX_PIECES} pieces, not {0}")]
    Pieces(usize),
    /// Reading or writing the file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A file that is not a database of the build's layout.
    #[error(
        "{path}: not an endgame database of this build ({why}); make it again with doska egdb build"
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// The file of rule set `v`'s database in folder `dir`.
pub fn path(dir: &Path, v: Variant) -> PathBuf {
    dir.join(format!("{v}.egdb"))
}

impl Egdb {
    /// Writes the database to `<dir>/<variant>.egdb`; gives the file's path and size.
    pub fn save(&self, dir: &Path) -> Result<(PathBuf, u64), EgdbError> {
        let file = path(dir, self.variant());
        let io = |source| EgdbError::Io { path: file.clone(), source };
        let mut out = MAGIC.to_vec();
        let name = self.variant().to_string();
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.push(self.pieces as u8);
        let slices = self.slices();
        out.extend_from_slice(&(slices.len() as u32).to_le_bytes());
        for s in slices {
            let Some(table) = self.table(s) else { continue };
            let (width, packed) = match table {
                Table::Narrow(t) => (1u8, miniz_oxide::deflate::compress_to_vec_zlib(t, 6)),
                Table::Wide(t) => {
                    let raw: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
                    (2, miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6))
                }
            };
            out.extend_from_slice(&[s.wm, s.wk, s.bm, s.bk]);
            out.extend_from_slice(&(table.len() as u64).to_le_bytes());
            out.push(width);
            out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
            out.extend_from_slice(&packed);
        }
        std::fs::create_dir_all(dir).map_err(io)?;
        // Written beside and renamed, so that a reader never sees half a file.
        let part = file.with_extension("egdb.part");
        let mut f = std::fs::File::create(&part).map_err(io)?;
        f.write_all(&out).map_err(io)?;
        f.sync_all().map_err(io)?;
        std::fs::rename(&part, &file).map_err(io)?;
        Ok((file, out.len() as u64))
    }

    /// Reads rule set `v`'s database from `<dir>/<variant>.egdb`; `Ok(None)` when there is no
    /// such file.
    pub fn load(dir: &Path, v: Variant) -> Result<Option<Egdb>, EgdbError> {
        let file = path(dir, v);
        let mut bytes = Vec::new();
        match std::fs::File::open(&file) {
            Ok(mut f) => f
                .read_to_end(&mut bytes)
                .map_err(|source| EgdbError::Io { path: file.clone(), source })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(EgdbError::Io { path: file, source }),
        };
        Egdb::parse(&bytes, v, &file).map(Some)
    }

    /// Reads rule set `v`'s database from the bytes of its file (`file` names it in errors).
    pub fn parse(bytes: &[u8], v: Variant, file: &Path) -> Result<Egdb, EgdbError> {
        let bad = |why: String| EgdbError::Format { path: file.to_path_buf(), why };
        let mut r = Reader(bytes);
        match r.take(8).ok_or_else(|| bad("empty".into()))? {
            m if m == MAGIC => {}
            b"DSKEGDB1" => return Err(bad("the layout before DSKEGDB2".into())),
            _ => return Err(bad("no DSKEGDB2 header".into())),
        }
        let n = r.take(1).ok_or_else(|| bad("ends in the header".into()))?[0] as usize;
        let name = r.take(n).ok_or_else(|| bad("ends in the name".into()))?;
        if name != v.to_string().as_bytes() {
            let name = String::from_utf8_lossy(name).into_owned();
            return Err(bad(format!("it is {name:?}'s database, not {v}'s")));
        }
        let pieces = r.take(1).ok_or_else(|| bad("ends in the header".into()))?[0] as usize;
        if !(2..=MAX_PIECES).contains(&pieces) {
            return Err(bad(format!("{pieces} pieces")));
        }
        let count = r.u32().ok_or_else(|| bad("ends in the header".into()))?;
        let mut db = Egdb::empty(v, pieces);
        for _ in 0..count {
            let c = r.take(4).ok_or_else(|| bad("ends in a slice's header".into()))?;
            let s = Slice { wm: c[0], wk: c[1], bm: c[2], bk: c[3] };
            if s.wm.max(s.wk).max(s.bm).max(s.bk) as usize > MAX_PIECES
                || s.pieces() > pieces
                || s.wm + s.wk == 0
                || s.bm + s.bk == 0
            {
                return Err(bad(format!("a slice {c:?} it cannot hold")));
            }
            let entries = r.u64().ok_or_else(|| bad("ends in a slice's header".into()))?;
            if entries != db.board.size(s) {
                return Err(bad(format!(
                    "{} has {entries} entries, not {}",
                    s.describe(),
                    db.board.size(s)
                )));
            }
            let width = r.take(1).ok_or_else(|| bad("ends in a slice's header".into()))?[0];
            if !matches!(width, 1 | 2) {
                return Err(bad(format!("{} has {width} bytes an entry", s.describe())));
            }
            let packed = r.u64().ok_or_else(|| bad("ends in a slice's header".into()))?;
            let packed = r.take(packed as usize).ok_or_else(|| bad("ends in a slice".into()))?;
            // Unpacked straight into a table of its size (a growing buffer would cost twice
            // the memory of the largest slice while the file is read).
            let mut raw = vec![0u8; width as usize * entries as usize];
            let unpacked = miniz_oxide::inflate::decompress_slice_iter_to_slice(
                &mut raw,
                std::iter::once(packed),
                true,
                false,
            )
            .map_err(|e| bad(format!("{} does not unpack to its size: {e:?}", s.describe())))?;
            if unpacked != raw.len() {
                return Err(bad(format!("{} unpacks to {unpacked} bytes", s.describe())));
            }
            db.tables[key(s)] = Some(if width == 1 {
                Table::Narrow(raw)
            } else {
                Table::Wide(raw.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect())
            });
        }
        if let Some(missing) =
            (2..=pieces).flat_map(Slice::all_with).find(|s| db.table(*s).is_none())
        {
            return Err(bad(format!("no table for {}", missing.describe())));
        }
        if !r.0.is_empty() {
            return Err(bad(format!("{} bytes after the last slice", r.0.len())));
        }
        Ok(db)
    }
}

/// Reads a file's fields in order.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }
}
