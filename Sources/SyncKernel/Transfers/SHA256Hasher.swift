import FerryHashing

/// SHA-256, as plugins verify files with it (`SyncKernel.SHA256Hasher`).
public typealias SHA256Hasher = FerryHashing.SHA256Hasher
