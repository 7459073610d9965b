-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "authArc" TEXT,
ADD COLUMN     "authDkim" TEXT,
ADD COLUMN     "authDmarc" TEXT,
ADD COLUMN     "authSpf" TEXT,
ADD COLUMN     "authVerdict" TEXT NOT NULL DEFAULT 'none';

