public enum SyncKernelPlaceholder {}
