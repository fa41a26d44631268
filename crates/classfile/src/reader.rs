//! A bounds-checked big-endian byte cursor. Every read returns a `ClassFormatError` instead of
//! panicking when the input runs out; sub-readers confine attribute parsing to the attribute's
//! declared length.

use crate::error::{ClassFormatError, Result};

#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    /// `""` for the whole class file, else the name of the attribute being read.
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader over a whole class file.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader { data, what: "" }
    }

    /// A reader over the contents of attribute `what`.
    pub(crate) fn attribute(data: &'a [u8], what: &'static str) -> Self {
        Reader { data, what }
    }

    fn truncated(&self) -> ClassFormatError {
        if self.what.is_empty() {
            ClassFormatError("Truncated class file".to_owned())
        } else {
            ClassFormatError(format!("Truncated {} attribute", self.what))
        }
    }

    /// Errors unless every byte was consumed (used to check attribute lengths).
    pub(crate) fn finish(&self) -> Result<()> {
        if self.data.is_empty() {
            Ok(())
        } else if self.what.is_empty() {
            Err(ClassFormatError(
                "Extra bytes at the end of class file".to_owned(),
            ))
        } else {
            Err(ClassFormatError(format!(
                "Wrong {} attribute length",
                self.what
            )))
        }
    }

    #[inline]
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.data.len() {
            return Err(self.truncated());
        }
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        Ok(head)
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.split_first_chunk::<N>() {
            Some((head, tail)) => {
                self.data = tail;
                Ok(*head)
            }
            None => Err(self.truncated()),
        }
    }

    #[inline]
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    #[inline]
    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// A capacity for a vector of `count` items each at least `min_size` bytes long that
    /// cannot exceed what the remaining input could hold.
    pub(crate) fn capacity(&self, count: usize, min_size: usize) -> usize {
        count.min(self.data.len() / min_size.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian_and_reports_truncation() {
        let mut r = Reader::new(&[0xCA, 0xFE, 0xBA, 0xBE, 0, 1, 2]);
        assert_eq!(r.u32().unwrap(), 0xCAFE_BABE);
        assert_eq!(r.u16().unwrap(), 1);
        assert_eq!(r.u16().unwrap_err().0, "Truncated class file");
        assert_eq!(r.u8().unwrap(), 2);
        assert!(r.finish().is_ok());
        assert!(r.bytes(1).is_err());
        assert!(r.u64().is_err());
    }

    #[test]
    fn attribute_reader_messages() {
        let mut r = Reader::attribute(&[0, 1, 2], "Code");
        assert_eq!(r.u16().unwrap(), 1);
        assert_eq!(r.finish().unwrap_err().0, "Wrong Code attribute length");
        assert_eq!(r.u32().unwrap_err().0, "Truncated Code attribute");
        assert_eq!(r.capacity(1000, 2), 0);
    }
}
