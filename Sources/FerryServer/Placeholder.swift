public enum FSPlaceholder {}
